import { Entity, PrimaryColumn } from 'typeorm';

/** A project uses an environment: its features get a feature-environment row there. */
@Entity('project_environments')
export class ProjectEnvironment {
  @PrimaryColumn({ name: 'project_id', type: 'varchar' })
  projectId: string;

  @PrimaryColumn({ name: 'environment_name', type: 'varchar' })
  environment: string;
}
