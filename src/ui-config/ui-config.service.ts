import { Injectable } from '@nestjs/common';
import { version } from '../../package.json';
import type { ResourceLimitsDto, UiConfigDto } from './dto/ui-config.dto';

/** Flagkeeper sets no limit on the number of these; the largest 32-bit integer says so. */
const UNLIMITED = 2147483647;

/**
 * The limits the DTOs enforce: constraint values (ConstraintDto), constraints and segments per
 * strategy (CreateStrategyDto). Strategies per feature environment are not limited.
 */
const RESOURCE_LIMITS: ResourceLimitsDto = {
  constraintValues: 1000,
  segmentValues: 1000,
  constraints: 100,
  strategySegments: 100,
  featureEnvironmentStrategies: UNLIMITED,
  environments: UNLIMITED,
  projects: UNLIMITED,
  apiTokens: UNLIMITED,
  segments: UNLIMITED,
  featureFlags: UNLIMITED,
  actionSetActions: 0,
  actionSetsPerProject: 0,
  actionSetFilters: 0,
  actionSetFilterValues: 0,
  signalEndpoints: 0,
  signalTokensPerEndpoint: 0,
  releaseTemplates: 0,
};

/**
 * What Unleash's admin UI reads at start (`GET /api/admin/ui-config`). See
 * docs/decisions-ui.md for why the version sits under `current.enterprise` and why EEA is set:
 * the UI shows its environments page (and the clone dialog) only then.
 */
@Injectable()
export class UiConfigService {
  config(baseUrl: string): UiConfigDto {
    return {
      name: 'Flagkeeper',
      version,
      environment: 'Flagkeeper',
      unleashUrl: baseUrl,
      baseUriPath: '',
      authenticationType: 'custom',
      versionInfo: { current: { enterprise: version }, latest: {}, isLatest: true },
      flags: { EEA: true },
      resourceLimits: { ...RESOURCE_LIMITS },
      links: [],
      disablePasswordAuth: true,
      emailEnabled: false,
      maintenanceMode: false,
      prometheusAPIAvailable: false,
    };
  }
}
