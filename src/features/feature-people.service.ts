import { Injectable } from '@nestjs/common';
import { PermissionError } from '../common/errors';
import { currentPrincipal } from '../common/request-context';
import { EventsService } from '../events/events.service';
import type { FeatureNamesSql, FeaturePeople } from '../events/events.store';
import { UsersStore } from '../users/users.store';
import type { FeatureDto } from './dto/feature.dto';
import { FeatureLookup } from './feature-lookup';

const NOBODY: FeaturePeople = { createdBy: null, collaborators: [] };

/** The people of each feature, and which of them the caller marked as a favorite. */
export interface PeopleOfFeatures {
  people: Map<string, FeaturePeople>;
  favorites: Set<string>;
}

/**
 * The people of features (issue 12): creator and collaborators from the event log, and the
 * caller's favorites. Set-based: one statement for the people of any number of features, and one
 * more for the favorites when the caller is a signed-in user (a token has none, so no statement).
 */
@Injectable()
export class FeaturePeopleService {
  constructor(
    private readonly events: EventsService,
    private readonly users: UsersStore,
    private readonly lookup: FeatureLookup,
  ) {}

  /**
   * The people of each feature and whether the caller marked it as a favorite. The features as
   * names, or as a sub-select of names (a whole project's list binds one parameter, not
   * thousands).
   */
  async of(features: string[] | FeatureNamesSql): Promise<PeopleOfFeatures> {
    const userId = currentPrincipal()?.user?.id;
    // Two independent reads: on MySQL/MariaDB each may take its own pooled connection.
    const [people, favorites] = await Promise.all([
      this.events.people(features),
      userId === undefined ? new Set<string>() : this.users.favorites(userId, features),
    ]);
    return { people, favorites };
  }

  /** The records with `createdBy`, `collaborators` and `favorite` filled in. */
  async fill(features: FeatureDto[]): Promise<FeatureDto[]> {
    if (features.length === 0) return features;
    return this.filled(features, await this.of(features.map((feature) => feature.name)));
  }

  /** The same, from what `of` read beforehand (beside the records' own reads, say). */
  filled(features: FeatureDto[], { people, favorites }: PeopleOfFeatures): FeatureDto[] {
    return features.map((feature) => {
      const { createdBy, collaborators } = people.get(feature.name) ?? NOBODY;
      return {
        ...feature,
        createdBy,
        collaborators: { users: collaborators },
        favorite: favorites.has(feature.name),
      };
    });
  }

  async addFavorite(projectId: string, featureName: string): Promise<void> {
    const userId = this.signedInUser();
    await this.lookup.inProject(projectId, featureName);
    await this.events.write({ type: 'feature-favorited', project: projectId, featureName }, (tx) =>
      this.users.addFavorite(userId, featureName, tx),
    );
  }

  async removeFavorite(projectId: string, featureName: string): Promise<void> {
    const userId = this.signedInUser();
    await this.lookup.inProject(projectId, featureName);
    await this.events.write(
      { type: 'feature-unfavorited', project: projectId, featureName },
      (tx) => this.users.removeFavorite(userId, featureName, tx),
    );
  }

  /** Favorites are a person's; a token acting alone is nobody, so it has none (403). */
  private signedInUser(): number {
    const user = currentPrincipal()?.user;
    if (!user) {
      throw new PermissionError(
        [],
        'Favorites belong to a signed-in user; an API token acting alone has none',
      );
    }
    return user.id;
  }
}
