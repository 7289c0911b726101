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
}
