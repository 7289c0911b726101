import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

@Entity('tag_types')
export class TagType {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  icon: string | null;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
