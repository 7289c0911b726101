import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row of `auth_version`: see AuthVersion (auth-version.service.ts). */
@Entity('auth_version')
export class AuthVersionRow {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  version: number;
}
