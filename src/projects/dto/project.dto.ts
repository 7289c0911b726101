import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'projectSchema' })
export class ProjectDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  @ApiProperty({ type: [String], description: 'Names of the linked environments, by name' })
  environments: string[];

  @ApiProperty({ description: 'Number of features in the project, archived ones not counted' })
  featureCount: number;
}

@ApiSchema({ name: 'projectsSchema' })
export class ProjectListDto {
  @ApiProperty({ type: [ProjectDto] }) projects: ProjectDto[];
}
