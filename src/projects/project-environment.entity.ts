import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A project uses an environment: its features get a feature-environment row there. */
@Entity('project_environments')
@Index(['environment'])
export class ProjectEnvironment {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 100 })
  @ForeignKey('projects', { onDelete: 'CASCADE' })
  projectId: string;

  @PrimaryColumn({ name: 'environment_name', type: 'varchar', length: 100 })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  environment: string;
}
