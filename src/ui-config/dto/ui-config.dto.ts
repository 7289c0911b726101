import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'versionSchema' })
export class VersionInfoDto {
  @ApiProperty({ description: 'The running version, under the key that the Unleash UI reads' })
  current: { oss?: string; enterprise?: string };
  @ApiProperty({ description: 'Always empty: Flagkeeper does not look for newer releases' })
  latest: Record<string, never>;
  @ApiProperty() isLatest: boolean;
}

/**
 * The limits that Flagkeeper enforces, under Unleash's names. A resource Flagkeeper does not
 * limit is reported as 2147483647; a feature Flagkeeper does not have (actions, signals,
 * release templates) as 0.
 */
@ApiSchema({ name: 'resourceLimitsSchema' })
export class ResourceLimitsDto {
  @ApiProperty() segmentValues: number;
  @ApiProperty() strategySegments: number;
  @ApiProperty() actionSetActions: number;
  @ApiProperty() actionSetsPerProject: number;
  @ApiProperty() actionSetFilters: number;
  @ApiProperty() actionSetFilterValues: number;
  @ApiProperty() signalEndpoints: number;
  @ApiProperty() signalTokensPerEndpoint: number;
  @ApiProperty() featureEnvironmentStrategies: number;
  @ApiProperty() constraintValues: number;
  @ApiProperty() constraints: number;
  @ApiProperty() environments: number;
  @ApiProperty() projects: number;
  @ApiProperty() apiTokens: number;
  @ApiProperty() segments: number;
  @ApiProperty() featureFlags: number;
  @ApiProperty() releaseTemplates: number;
}

@ApiSchema({ name: 'uiConfigSchema' })
export class UiConfigDto {
  @ApiProperty() name: string;
  @ApiProperty() version: string;
  @ApiProperty({ description: 'The base URL the caller reached this server at' })
  unleashUrl: string;
  @ApiProperty({ description: 'Path prefix of every route; empty: served at the root' })
  baseUriPath: string;
  @ApiProperty({
    enum: ['custom'],
    description: 'Flagkeeper authenticates with its own API tokens',
  })
  authenticationType: 'custom';
  @ApiProperty({ type: VersionInfoDto }) versionInfo: VersionInfoDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    description: 'UI switches; only EEA, which unlocks the environments page',
  })
  flags: Record<string, boolean>;
  @ApiProperty({ type: ResourceLimitsDto }) resourceLimits: ResourceLimitsDto;
  @ApiProperty({ type: [Object] }) links: never[];
  @ApiProperty() disablePasswordAuth: boolean;
  @ApiProperty() emailEnabled: boolean;
  @ApiProperty() maintenanceMode: boolean;
  @ApiProperty() prometheusAPIAvailable: boolean;
  @ApiPropertyOptional() environment?: string;
}
