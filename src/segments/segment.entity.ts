import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { jsonTransformer } from '../database/json-column';

@Entity('segments')
export class Segment {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'project_id', type: 'varchar', nullable: true })
  projectId: string | null;

  @Column({ type: 'text', transformer: jsonTransformer<Constraint[]>([]) })
  constraints: Constraint[];

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
