import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

@Entity('projects')
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
