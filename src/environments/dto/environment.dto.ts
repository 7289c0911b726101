import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The seed's Environment record, with the counts of rules.md §7. */
@ApiSchema({ name: 'environmentSchema' })
export class EnvironmentDto {
  @ApiProperty({ description: 'Name of the environment' })
  name: string;

  @ApiProperty({ description: 'Type of the environment (for example development or production)' })
  type: string;

  @ApiProperty({ description: 'true if the environment is enabled' })
  enabled: boolean;

  @ApiProperty({ description: 'true if protected; a protected environment cannot be deleted' })
  protected: boolean;

  @ApiProperty({
    type: 'integer',
    description: 'Priority in a list of environments; lower values appear first',
  })
  sortOrder: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Number of projects linked to it' })
  projectCount: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Number of client and frontend API tokens scoped to it',
  })
  apiTokenCount: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Number of features enabled in it',
  })
  enabledToggleCount: number | null;
}

@ApiSchema({ name: 'environmentsSchema' })
export class EnvironmentListDto {
  @ApiProperty({ example: 1 })
  version: 1;

  @ApiProperty({ type: [EnvironmentDto] })
  environments: EnvironmentDto[];
}

/** An environment as a project sees it (Unleash's environmentProjectSchema). */
@ApiSchema({ name: 'environmentProjectSchema' })
export class ProjectEnvironmentDto {
  @ApiProperty() name: string;
  @ApiProperty() type: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty() protected: boolean;
  @ApiProperty({ type: 'integer' }) sortOrder: number;
  @ApiProperty({
    type: 'integer',
    description: "Number of the project's features (not archived) enabled in it",
  })
  projectEnabledToggleCount: number;
}

@ApiSchema({ name: 'environmentsProjectSchema' })
export class ProjectEnvironmentListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [ProjectEnvironmentDto] }) environments: ProjectEnvironmentDto[];
}
