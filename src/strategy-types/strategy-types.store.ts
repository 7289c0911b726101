import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { toBoolean } from '../database/sql-values';

/** The raw SQL of `strategy_types` (simple reads and writes go through the service's repository). */
@Injectable()
export class StrategyTypesStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** Which of these strategy types exist, and whether each is built in (one statement). */
  async byNames(
    tx: EntityManager,
    names: string[],
  ): Promise<Array<{ name: string; builtIn: boolean }>> {
    if (names.length === 0) return [];
    const rows: Array<{ name: string; built_in: unknown }> = await tx.query(
      `SELECT name, built_in FROM strategy_types WHERE name IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(names)],
    );
    return rows.map((row) => ({
      name: row.name,
      builtIn: toBoolean(row.built_in),
    }));
  }
}
