import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * The export's checked text of a run of consecutive selected features in one environment: their
 * feature environments', strategies' and tags' items (each list's items joined by commas), what
 * they name, and the signature of the features, stamps and generation they were written from;
 * used only while the signature is the one the export computes (ExportRunsStore).
 */
@Entity('export_kept_runs')
export class ExportKeptRun {
  @PrimaryColumn({ name: 'environment_name', type: 'varchar', length: 100 })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  environment: string;

  /** The run's first feature, in byte order; the run's key. */
  @PrimaryColumn({ name: 'first_feature', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  @Index()
  firstFeature: string;

  @Column({ type: 'varchar', length: 64 })
  signature: string;

  @Column({ type: 'text' })
  environments: string;

  @Column({ type: 'text' })
  strategies: string;

  @Column({ type: 'text' })
  tags: string;

  /** `[[context field names], [segment ids], [tag types]]` as JSON text. */
  @Column({ type: 'text' })
  names: string;
}
