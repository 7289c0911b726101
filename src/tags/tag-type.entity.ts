import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('tag_types')
export class TagType {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', nullable: true })
  icon: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
