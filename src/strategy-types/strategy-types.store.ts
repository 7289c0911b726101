import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { parseJson } from '../database/json-column';
import { toBoolean } from '../database/sql-values';
import type { StrategyParameterDefinition } from './strategy-type.entity';

/** The raw SQL of `strategy_types` (simple reads and writes go through the service's repository). */
@Injectable()
export class StrategyTypesStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** Which of these strategy types exist, whether each is built in, and their parameters (one statement). */
  async byNames(
    tx: EntityManager,
    names: string[],
  ): Promise<Array<{ name: string; builtIn: boolean; parameters: StrategyParameterDefinition[] }>> {
    if (names.length === 0) return [];
    const rows: Array<{ name: string; built_in: unknown; parameters: unknown }> = await tx.query(
      `SELECT name, built_in, parameters FROM strategy_types
        WHERE name IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(names)],
    );
    return rows.map((row) => ({
      name: row.name,
      builtIn: toBoolean(row.built_in),
      parameters: parseJson<StrategyParameterDefinition[]>(row.parameters, []),
    }));
  }
}
