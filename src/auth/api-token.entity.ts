import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';
import type { TokenType } from './permissions';

@Entity('api_tokens')
export class ApiToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_name', type: 'varchar' })
  tokenName: string;

  @Column({ type: 'varchar' })
  type: TokenType;

  /** SHA-256 of the whole token string; the secret itself is never stored. */
  @Column({ name: 'secret_hash', type: 'varchar' })
  secretHash: string;

  @Column({ name: 'environment_name', type: 'varchar', nullable: true })
  environment: string | null;

  @Column({ type: 'text', transformer: jsonTransformer<string[]>([]) })
  projects: string[];

  @Column({ name: 'role_id', type: 'integer', nullable: true })
  roleId: number | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
