import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';
import { jsonTransformer } from '../database/json-column';
import type { TokenType } from './permissions';

@Entity('api_tokens')
export class ApiToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_name', type: 'varchar', length: 255 })
  tokenName: string;

  @Column({ type: 'varchar', length: 20 })
  type: TokenType;

  /** SHA-256 of the whole token string; the secret itself is never stored. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64, unique: true })
  secretHash: string;

  @Column({ name: 'environment_name', type: 'varchar', length: 100, nullable: true })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  @Index()
  environment: string | null;

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<string[]>([]) })
  projects: string[];

  @Column({ name: 'role_id', type: 'integer', nullable: true })
  @ForeignKey('roles', { onDelete: 'RESTRICT' })
  roleId: number | null;

  @Column({ name: 'expires_at', type: 'datetime', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
