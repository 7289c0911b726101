import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('feedback')
export class Feedback {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  category: string;

  @Column({ name: 'user_type', type: 'varchar', length: 100, nullable: true })
  userType: string | null;

  @Column({ name: 'difficulty_score', type: 'double', nullable: true })
  difficultyScore: number | null;

  @Column({ type: 'text', nullable: true })
  positive: string | null;

  @Column({ name: 'areas_for_improvement', type: 'text', nullable: true })
  areasForImprovement: string | null;

  /** Always set in code (not left to the column default), so the insert needs no read-back. */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
