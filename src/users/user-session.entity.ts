import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A sign-in session; only a SHA-256 of its id is stored. */
@Entity('user_sessions')
export class UserSession {
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  @Index()
  userId: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'datetime' })
  lastSeenAt: Date;

  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;
}
