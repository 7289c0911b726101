import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'projectEnvironmentSchema' })
export class ProjectEnvironmentDto {
  @ApiProperty() environment: string;
}

@ApiSchema({ name: 'featureTypeCountSchema' })
export class FeatureTypeCountDto {
  @ApiProperty() type: string;
  @ApiProperty() count: number;
}

/** Windows of 30 days; figures that need an event history Flagkeeper does not keep are 0. */
@ApiSchema({ name: 'projectStatsSchema' })
export class ProjectStatsDto {
  @ApiProperty() avgTimeToProdCurrentWindow: number;
  @ApiProperty() createdCurrentWindow: number;
  @ApiProperty() createdPastWindow: number;
  @ApiProperty() archivedCurrentWindow: number;
  @ApiProperty() archivedPastWindow: number;
  @ApiProperty() projectActivityCurrentWindow: number;
  @ApiProperty() projectActivityPastWindow: number;
  @ApiProperty() projectMembersAddedCurrentWindow: number;
}

@ApiSchema({ name: 'projectOverviewSchema' })
export class ProjectOverviewDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: ['open'] }) mode: 'open';
  @ApiProperty() defaultStickiness: string;
  @ApiProperty({ type: Number, nullable: true }) featureLimit: number | null;
  @ApiProperty({ description: 'Always 0: projects have no members' }) members: number;
  @ApiProperty({ description: 'Percentage of active features that are not stale' }) health: number;
  @ApiProperty({ description: 'Percentage of active features that are stale' })
  technicalDebt: number;
  @ApiProperty({ type: [ProjectEnvironmentDto] }) environments: ProjectEnvironmentDto[];
  @ApiProperty({ type: [FeatureTypeCountDto] }) featureTypeCounts: FeatureTypeCountDto[];
  @ApiProperty({ type: ProjectStatsDto }) stats: ProjectStatsDto;
  @ApiProperty() createdAt: string;
  @ApiProperty() favorite: boolean;
  @ApiProperty() onboardingStatus: { status: 'onboarded' };
}

@ApiSchema({ name: 'lifecycleStageSummarySchema' })
export class LifecycleStageSummaryDto {
  @ApiProperty() currentFlags: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Not computed: null' })
  averageDays: number | null;
}

@ApiSchema({ name: 'archivedStageSummarySchema' })
export class ArchivedStageSummaryDto {
  @ApiProperty() currentFlags: number;
  @ApiProperty() last30Days: number;
}

@ApiSchema({ name: 'lifecycleSummarySchema' })
export class LifecycleSummaryDto {
  @ApiProperty() initial: LifecycleStageSummaryDto;
  @ApiProperty() preLive: LifecycleStageSummaryDto;
  @ApiProperty() live: LifecycleStageSummaryDto;
  @ApiProperty() completed: LifecycleStageSummaryDto;
  @ApiProperty() archived: ArchivedStageSummaryDto;
}

@ApiSchema({ name: 'projectStatusSchema' })
export class ProjectStatusDto {
  @ApiProperty({ type: [Object], description: 'Always empty: no event history yet' })
  activityCountByDate: never[];
  @ApiProperty() resources: { apiTokens: number; members: number; segments: number };
  @ApiProperty() health: { current: number };
  @ApiProperty() technicalDebt: { current: number };
  @ApiProperty() lifecycleSummary: LifecycleSummaryDto;
  @ApiProperty() staleFlags: { total: number };
}
