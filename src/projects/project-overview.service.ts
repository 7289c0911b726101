import { Injectable } from '@nestjs/common';
import { AuthStore } from '../auth/auth.store';
import { EnvironmentsStore } from '../environments/environments.store';
import { FeaturesStore } from '../features/features.store';
import { LifecycleStore } from '../features/lifecycle.store';
import { SegmentsStore } from '../segments/segments.store';
import type { ProjectOverviewDto, ProjectStatusDto } from './dto/project-overview.dto';
import { ProjectsService } from './projects.service';
import { ProjectsStore } from './projects.store';

/**
 * The project pages of Unleash's admin UI: figures computed from what Flagkeeper stores. Those
 * that need people or an event history (members, activity, time to production) are 0 or empty.
 */
@Injectable()
export class ProjectOverviewService {
  constructor(
    private readonly projects: ProjectsService,
    private readonly store: ProjectsStore,
    private readonly environments: EnvironmentsStore,
    private readonly features: FeaturesStore,
    private readonly lifecycle: LifecycleStore,
    private readonly segments: SegmentsStore,
    private readonly auth: AuthStore,
  ) {}

  async overview(id: string): Promise<ProjectOverviewDto> {
    const project = await this.projects.get(id);
    const linked = new Set(await this.store.environmentsOf(id));
    const environments = (await this.environments.orders())
      .filter((env) => linked.has(env.name))
      .map((env) => ({ environment: env.name }));
    const featureTypeCounts = await this.features.typeCounts(id);
    const figures = await this.features.projectFigures(id, new Date());
    const { health, technicalDebt } = healthOf(figures.active, figures.stale);
    return {
      version: 1,
      id: project.id,
      name: project.name,
      description: project.description ?? null,
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      members: 0,
      health,
      technicalDebt,
      environments,
      featureTypeCounts,
      stats: {
        avgTimeToProdCurrentWindow: 0,
        createdCurrentWindow: figures.createdCurrentWindow,
        createdPastWindow: figures.createdPastWindow,
        archivedCurrentWindow: figures.archivedCurrentWindow,
        archivedPastWindow: figures.archivedPastWindow,
        projectActivityCurrentWindow: 0,
        projectActivityPastWindow: 0,
        projectMembersAddedCurrentWindow: 0,
      },
      createdAt: project.createdAt,
      favorite: false,
      onboardingStatus: { status: 'onboarded' },
    };
  }

  async status(id: string): Promise<ProjectStatusDto> {
    await this.projects.assertExists(id);
    const figures = await this.features.projectFigures(id, new Date());
    const stages = await this.lifecycle.currentStageCounts(id);
    const stage = (name: string) => ({ currentFlags: stages.get(name) ?? 0, averageDays: null });
    const { health, technicalDebt } = healthOf(figures.active, figures.stale);
    return {
      activityCountByDate: [],
      resources: {
        apiTokens: await this.auth.sdkTokenCountForProject(id),
        members: 0,
        segments: (await this.segments.ofProject(id)).length,
      },
      health: { current: health },
      technicalDebt: { current: technicalDebt },
      lifecycleSummary: {
        initial: stage('initial'),
        preLive: stage('pre-live'),
        live: stage('live'),
        completed: stage('completed'),
        archived: {
          currentFlags: stages.get('archived') ?? 0,
          last30Days: figures.archivedCurrentWindow,
        },
      },
      staleFlags: { total: figures.stale },
    };
  }
}

/** As Unleash counts it: the share of active features that are not stale (100 with none). */
function healthOf(active: number, stale: number): { health: number; technicalDebt: number } {
  const health = active === 0 ? 100 : Math.round((100 * (active - stale)) / active);
  return { health, technicalDebt: 100 - health };
}
