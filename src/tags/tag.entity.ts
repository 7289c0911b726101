import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tag (type and value) that features may carry; it exists once created, carried or not. */
@Entity('tags')
export class Tag {
  @PrimaryColumn({ name: 'tag_type', type: 'varchar' })
  tagType: string;

  @PrimaryColumn({ name: 'tag_value', type: 'varchar' })
  tagValue: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
