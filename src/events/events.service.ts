import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/permissions';
import { currentPrincipal } from '../common/request-context';
import type {
  EventCreatorDto,
  EventListDto,
  EventQueryDto,
  EventSearchResultDto,
} from './dto/event.dto';
import { parseEventSearch } from './event-search-query';
import { EventsStore, FeatureNamesSql, FeaturePeople, NewEvent } from './events.store';

/** What a write says about itself; who made it comes from the principal. */
export type EventChange = Omit<NewEvent, 'createdBy' | 'createdByUserId'>;

/** Work that follows every recorded change inside the change's own transaction. */
export type ChangeFollower = (tx: EntityManager, changes: readonly EventChange[]) => Promise<void>;

/**
 * Who acted: the signed-in user, or a token acting alone (by its name, with no user id); work
 * outside a request (start-up) is the system's.
 */
export function actorOf(principal: Principal | undefined): {
  createdBy: string;
  createdByUserId: number | null;
} {
  if (!principal) return { createdBy: 'system', createdByUserId: null };
  return principal.user
    ? { createdBy: principal.user.name, createdByUserId: principal.user.id }
    : { createdBy: principal.tokenName, createdByUserId: null };
}

/**
 * The audit trail: every write appends its event in its own transaction, so a failed change
 * leaves no event and a committed one always has its event.
 */
@Injectable()
export class EventsService {
  private readonly followers: ChangeFollower[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: EventsStore,
  ) {}

  /** One write and its event, in one transaction: for writes that need no transaction of their own. */
  async write<T>(change: EventChange, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      const result = await work(tx);
      await this.record(tx, change);
      return result;
    });
  }

  /**
   * Has `follower` run after the events of every write, in the write's transaction. Every change
   * records its event, so a follower sees every change without each write calling it (the list's
   * kept items, FeatureListModel).
   */
  follow(follower: ChangeFollower): void {
    this.followers.push(follower);
  }

  /** Appends the events of a write in its transaction, as done by the current request's caller. */
  async record(tx: EntityManager, ...changes: EventChange[]): Promise<void> {
    const actor = actorOf(currentPrincipal());
    await this.store.append(
      tx,
      changes.map((change) => ({ ...change, ...actor })),
    );
    for (const follower of this.followers) await follower(tx, changes);
  }

  /**
   * An event that accompanies no change of its own (an export, which reads in a read-only
   * transaction): one INSERT, atomic by itself, made before the result leaves the server.
   */
  recordAlone(change: EventChange): Promise<void> {
    return this.record(this.dataSource.manager, change);
  }

  async list(query: EventQueryDto): Promise<EventListDto> {
    const page = await this.search(query);
    return { version: 1, events: page.events, totalEvents: page.total };
  }

  search(query: EventQueryDto): Promise<EventSearchResultDto> {
    return this.store.search(parseEventSearch(query), query.offset ?? 0, query.limit ?? 50);
  }

  /** Who can be chosen in the event log's "Created by" filter (Unleash's event-creators). */
  creators(): Promise<EventCreatorDto[]> {
    return this.store.creators();
  }

  collaborators(featureNames: string[]): Promise<Map<string, number[]>> {
    return this.store.collaborators(featureNames);
  }

  /** Creator and collaborators of each feature (one statement). */
  people(featureNames: string[] | FeatureNamesSql): Promise<Map<string, FeaturePeople>> {
    return this.store.people(featureNames);
  }
}
