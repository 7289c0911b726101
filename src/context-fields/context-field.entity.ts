import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';
import { jsonTransformer } from '../database/json-column';

export interface LegalValue {
  value: string;
  description?: string;
}

@Entity('context_fields')
export class ContextField {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  stickiness: boolean;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder: number;

  /** Kept in the order the client gave them. */
  @Column({
    name: 'legal_values',
    type: 'text',
    default: '[]',
    transformer: jsonTransformer<LegalValue[]>([]),
  })
  legalValues: LegalValue[];

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;

  /**
   * Flipped (0/1) by writes that rely on this row, so that they conflict with each other on
   * Galera too (migration 1764300000000-write-claims; docs/decisions-galera.md). Never read;
   * left out of inserts, which take the database's default (the app's metadata has none).
   */
  @Column({ name: 'write_claim', type: 'integer', default: 0, select: false, insert: false })
  writeClaim?: number;
}
