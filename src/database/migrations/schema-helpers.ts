import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column builders shared by the migrations, so that one migration serves SQLite and MySQL:
 * names compare byte-wise on both (utf8mb4_bin on MySQL, SQLite's default BINARY), and
 * timestamps keep milliseconds (datetime(3) on MySQL).
 */
export class ColumnKit {
  readonly mysql: boolean;

  constructor(queryRunner: QueryRunner) {
    const type = queryRunner.connection.options.type;
    this.mysql = type === 'mysql' || type === 'mariadb';
  }

  name(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return this.varchar(name, 100, options);
  }

  varchar(
    name: string,
    length: number,
    options: Partial<TableColumnOptions> = {},
  ): TableColumnOptions {
    return {
      name,
      type: 'varchar',
      length: String(length),
      ...(this.mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
      ...options,
    };
  }

  /** Long text (descriptions, JSON documents). MEDIUMTEXT on MySQL so JSON lists fit. */
  text(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return {
      name,
      type: this.mysql ? 'mediumtext' : 'text',
      ...(this.mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
      ...options,
    };
  }

  /** A JSON document stored as text, so raw reads return a string on both databases. */
  json(name: string, defaultJson: string): TableColumnOptions {
    // MySQL before 8.0.13 cannot default a TEXT column; the entities always write a value.
    return this.text(name, this.mysql ? {} : { default: `'${defaultJson}'` });
  }

  bool(name: string, defaultValue: boolean): TableColumnOptions {
    return { name, type: 'boolean', default: defaultValue ? 1 : 0 };
  }

  int(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'integer', ...options };
  }

  id(name = 'id'): TableColumnOptions {
    return {
      name,
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    };
  }

  timestamp(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'datetime', ...(this.mysql ? { precision: 3 } : {}), ...options };
  }

  createdAt(name = 'created_at'): TableColumnOptions {
    return this.timestamp(name, {
      default: this.mysql ? 'CURRENT_TIMESTAMP(3)' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))",
    });
  }

  double(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: this.mysql ? 'double' : 'real', ...options };
  }
}
