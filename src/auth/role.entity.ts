import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('roles')
export class Role {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `root` roles come with the service and cannot be changed; `custom` ones are created through the API. */
  @Column({ type: 'varchar' })
  type: 'root' | 'custom';

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
