import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';

export interface LegalValue {
  value: string;
  description?: string;
}

@Entity('context_fields')
export class ContextField {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean' })
  stickiness: boolean;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  /** Kept in the order the client gave them. */
  @Column({ name: 'legal_values', type: 'text', transformer: jsonTransformer<LegalValue[]>([]) })
  legalValues: LegalValue[];

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
