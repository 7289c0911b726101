import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

@Entity('roles')
export class Role {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `root` roles come with the service and cannot be changed; `custom` ones are created through the API. */
  @Column({ type: 'varchar', length: 20, default: 'custom' })
  type: 'root' | 'custom';

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
