import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Permission } from './permissions';

@Entity('role_permissions')
export class RolePermission {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'role_id', type: 'integer' })
  roleId: number;

  @Column({ type: 'varchar' })
  permission: Permission;

  /** null: the permission holds in every environment. */
  @Column({ name: 'environment_name', type: 'varchar', nullable: true })
  environment: string | null;
}
