import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import {
  checkConstraints,
  Constraint,
  ConstraintInput,
  ContextFieldRules,
} from '../common/constraints/constraint';
import { ValidationError } from '../common/errors';
import { ContextField } from './context-field.entity';
import { ContextFieldsStore } from './context-fields.store';

/**
 * Validates constraints (of segments and strategies) against the stored context fields, with one
 * query for all the fields they name.
 */
@Injectable()
export class ConstraintValidator {
  constructor(
    @InjectRepository(ContextField) private readonly fields: Repository<ContextField>,
    private readonly store: ContextFieldsStore,
  ) {}

  /** Which of these names are context fields (one query). */
  async existingNames(names: string[], manager?: EntityManager): Promise<Set<string>> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return new Set();
    const fields = manager ? manager.getRepository(ContextField) : this.fields;
    const rows = await fields.find({ where: { name: In(unique) }, select: { name: true } });
    return new Set(rows.map((row) => row.name));
  }

  /**
   * One constraint as a whole body (the forms' validate route), under exactly the rules of
   * `validate`: the details point at `/body/...` rather than at an index in a list.
   */
  async validateOne(input: ConstraintInput): Promise<void> {
    const list = '/body/constraints';
    try {
      await this.validate([input], list);
    } catch (error) {
      if (!(error instanceof ValidationError) || !error.details) throw error;
      const details = error.details.map((detail) => ({
        ...detail,
        path: `/body${detail.path.slice(`${list}/0`.length)}`,
      }));
      throw ValidationError.listing(details, 'Invalid constraint');
    }
  }

  /** Returns the constraints normalised, or throws a ValidationError listing every violation. */
  async validate(inputs: ConstraintInput[], pathPrefix: string): Promise<Constraint[]> {
    const names = [...new Set(inputs.map((c) => c.contextName))];
    const rows = names.length
      ? await this.fields.find({
          where: { name: In(names) },
          select: { name: true, legalValues: true },
        })
      : [];
    const rules = new Map<string, ContextFieldRules>(
      rows.map((row) => [row.name, { legalValues: row.legalValues.map((legal) => legal.value) }]),
    );
    const { constraints, details } = checkConstraints(inputs, rules, pathPrefix);
    if (details.length > 0) {
      throw ValidationError.listing(details, 'Invalid constraints');
    }
    return constraints;
  }

  /**
   * Inside the transaction that stores these (already validated) constraints: claims the context
   * fields they name (ContextFieldsStore.claim), so that none can be deleted until the
   * constraints are committed, on one node or across Galera nodes, and refuses them (400, as
   * validate() would) when a field was deleted since validate() ran.
   */
  async holdFields(
    constraints: Array<{ contextName: string }>,
    pathPrefix: string,
    tx: EntityManager,
  ): Promise<void> {
    const names = [...new Set(constraints.map((c) => c.contextName))];
    const existing = await this.store.claim(names, tx);
    const details = constraints.flatMap((c, index) =>
      existing.has(c.contextName)
        ? []
        : [
            {
              path: `${pathPrefix}/${index}/contextName`,
              message: `Unknown context field ${c.contextName}`,
            },
          ],
    );
    if (details.length > 0) throw ValidationError.listing(details, 'Invalid constraints');
  }
}
