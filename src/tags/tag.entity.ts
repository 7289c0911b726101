import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

/** A tag (type and value) that features may carry; it exists once created, carried or not. */
@Entity('tags')
export class Tag {
  @PrimaryColumn({ name: 'tag_type', type: 'varchar', length: 100 })
  @ForeignKey('tag_types', { onDelete: 'CASCADE' })
  tagType: string;

  @PrimaryColumn({ name: 'tag_value', type: 'varchar', length: 50 })
  tagValue: string;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
