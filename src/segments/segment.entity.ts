import { Column, Entity, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';
import { jsonTransformer } from '../database/json-column';

@Entity('segments')
export class Segment {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'project_id', type: 'varchar', length: 100, nullable: true })
  @ForeignKey('projects', { onDelete: 'CASCADE' })
  projectId: string | null;

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<Constraint[]>([]) })
  constraints: Constraint[];

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
