import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

@Entity('feedback')
@Index(['createdAt', 'id'])
@Index(['category', 'createdAt'])
export class Feedback {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  category: string;

  @Column({ name: 'user_type', type: 'varchar', length: 100, nullable: true })
  userType: string | null;

  /** REAL on SQLite, DOUBLE on MySQL (TypeORM maps one to the other). */
  @Column({ name: 'difficulty_score', type: 'real', nullable: true })
  difficultyScore: number | null;

  @Column({ type: 'text', nullable: true })
  positive: string | null;

  @Column({ name: 'areas_for_improvement', type: 'text', nullable: true })
  areasForImprovement: string | null;

  /** Always set in code (not left to the column default), so the insert needs no read-back. */
  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
