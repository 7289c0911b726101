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

const MAX_VARIANTS = 100;

/** The variants of a feature in one environment. */
@Injectable()
export class VariantsService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
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
    const inputs = await validateArrayBody(VariantInputDto, body, MAX_VARIANTS);
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    const before = await this.lookup.environmentOf(feature, environment);
    const { variants, details, references } = normaliseVariants(inputs, '/body');
    const known = await this.lookup.existingContextFields(referencedNames(references));
    details.push(...unknownContextFields(references, known));
    if (details.length > 0) throw ValidationError.listing(details);
    await this.dataSource.transaction(async (tx) => {
      await tx.update(FeatureEnvironment, { featureName: name, environment }, { variants });
      await this.events.record(tx, {
        type: 'feature-environment-variants-updated',
        project: projectId,
        environment,
        featureName: name,
        data: { variants },
        preData: { variants: before.variants },
      });
    });
    return { version: 1, variants };
  }
}
