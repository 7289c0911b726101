import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Permission } from './permissions';

@Entity('role_permissions')
export class RolePermission {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'role_id', type: 'integer' })
  @ForeignKey('roles', { onDelete: 'CASCADE' })
  @Index()
  roleId: number;

  @Column({ type: 'varchar', length: 100 })
  permission: Permission;

  /** null: the permission holds in every environment. */
  @Column({ name: 'environment_name', type: 'varchar', length: 100, nullable: true })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  @Index()
  environment: string | null;
}
