import { ValidationError } from '../common/errors';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { validateArrayBody } from './body-validation';
import { VariantInputDto, VariantListDto } from './dto/variant.dto';
import { FeatureEnvironment } from './feature-environment.entity';
import { FeatureLookup } from './feature-lookup';
import { normaliseVariants, referencedNames, unknownContextFields } from './variant-rules';
import { EventsService } from '../events/events.service';
import { applyJsonPatch } from '../common/json-patch';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import type { Variant } from './variant';

const MAX_VARIANTS = 100;

/** The variants of a feature in one environment. */
@Injectable()
export class VariantsService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
  ) {}

  async get(projectId: string, name: string, environment: string): Promise<VariantListDto> {
    const feature = await this.lookup.inProject(projectId, name);
    const row = await this.lookup.environmentOf(feature, environment);
    return { version: 1, variants: row.variants };
  }

  /**
   * Replaces the whole list. The body is a bare array, validated here item by item; names must
   * be unique, context fields (stickiness, overrides) must exist, and the weights are spread so
   * that they total 1000 (variant-rules.ts).
   */
  async replace(
    projectId: string,
    name: string,
    environment: string,
    body: unknown,
  ): Promise<VariantListDto> {
    // The body is checked before anything is looked up, so a bad body is a 400 whatever it names.
    await validateArrayBody(VariantInputDto, body, MAX_VARIANTS);
    return this.write(projectId, name, environment, '/body', () => body);
  }

  /**
   * Applies a JSON Patch to the stored list, as Unleash's UI saves its variants form (the
   * difference between the old and the new list). The patched list then meets the rules of
   * `replace`, with its problems at `/variants/<index>/...`.
   */
  patch(
    projectId: string,
    name: string,
    environment: string,
    body: unknown,
  ): Promise<VariantListDto> {
    return this.write(projectId, name, environment, '/variants', (current) =>
      applyJsonPatch(current, body),
    );
  }

  /**
   * Reads, changes and stores the list in one transaction with the feature's row in the
   * environment locked, so that two writes at once never work from the same old list.
   */
  private async write(
    projectId: string,
    name: string,
    environment: string,
    where: string,
    change: (current: Variant[]) => unknown,
  ): Promise<VariantListDto> {
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    return this.dataSource.transaction(async (tx) => {
      await this.featureEnvironments.lock(name, environment, tx);
      const before = await this.lookup.environmentOf(feature, environment, tx);
      const changed = change(structuredClone(before.variants));
      const inputs = await validateArrayBody(VariantInputDto, changed, MAX_VARIANTS, where);
      const { variants, details, references } = normaliseVariants(inputs, where);
      const known = await this.lookup.existingContextFields(referencedNames(references), tx);
      details.push(...unknownContextFields(references, known));
      if (details.length > 0) throw ValidationError.listing(details);
      await tx.update(FeatureEnvironment, { featureName: name, environment }, { variants });
      await this.events.record(tx, {
        type: 'feature-environment-variants-updated',
        project: projectId,
        environment,
        featureName: name,
        data: { variants },
        preData: { variants: before.variants },
      });
      return { version: 1, variants };
    });
  }
}
