import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('environments')
export class Environment {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ type: 'varchar' })
  type: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** A protected environment cannot be deleted or updated (it can still be switched on and off). */
  @Column({ type: 'boolean' })
  protected: boolean;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
