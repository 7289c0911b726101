import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A feature's strategy items in one environment as the export writes them (checked, joined by
 * commas), what they name, and the feature's list stamp and the list generation they were written
 * from; used only while both still match (StrategiesStore.readKeptForExport).
 */
@Entity('export_strategy_items')
export class ExportStrategyItem {
  @PrimaryColumn({ name: 'environment_name', type: 'varchar', length: 100 })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  environment: string;

  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  @Index()
  featureName: string;

  @Column({ type: 'integer' })
  stamp: number;

  @Column({ type: 'integer' })
  generation: number;

  @Column({ type: 'text' })
  items: string;

  /** `[[context field names], [segment ids]]` as JSON text. */
  @Column({ type: 'text' })
  names: string;
}
