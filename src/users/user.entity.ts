import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A person who signs in. The store reads and writes it with raw SQL; the entity describes the table. */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true, unique: true })
  username: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true, unique: true })
  email: string | null;

  @Column({ name: 'image_url', type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;

  @Column({ name: 'root_role_id', type: 'integer' })
  @ForeignKey('roles', { onDelete: 'RESTRICT' })
  @Index()
  rootRoleId: number;

  /** scrypt, with its parameters (passwords.ts); never returned, never logged. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'seen_at', type: 'datetime', nullable: true })
  seenAt: Date | null;
}
