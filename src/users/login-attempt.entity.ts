import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Failed sign-ins in the current window, per username and per client address. */
@Entity('login_attempts')
export class LoginAttempt {
  @PrimaryColumn({ name: 'attempt_key', type: 'varchar', length: 200 })
  attemptKey: string;

  @Column({ name: 'window_start', type: 'datetime' })
  windowStart: Date;

  @Column({ type: 'integer' })
  failures: number;
}
