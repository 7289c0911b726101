import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One entry of the audit trail (no foreign keys: the log outlives what it describes). */
@Entity('events')
@Index(['featureName', 'id'])
@Index(['type', 'id'])
@Index(['project', 'id'])
@Index(['createdBy', 'id'])
// The people of listed features: "nobody" is read from the index alone (issue 15).
@Index(['featureName', 'createdByUserId'])
export class Event {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy: string;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  project: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  environment: string | null;

  @Column({ name: 'feature_name', type: 'varchar', length: 100, nullable: true })
  featureName: string | null;

  @Column({ type: 'text', nullable: true })
  data: string | null;

  @Column({ name: 'pre_data', type: 'text', nullable: true })
  preData: string | null;
}
