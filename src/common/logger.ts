import type { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config/app-config';

/**
 * One pino logger for the whole process: Fastify's request logs and Nest's own logs both go
 * through it as JSON lines. The Authorization header is redacted should anything log headers.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  });
}

/** Lets Nest's Logger write through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack, context); the stack is deliberately not logged.
    const context = rest.length > 0 ? rest[rest.length - 1] : undefined;
    this.write('error', message, typeof context === 'string' ? context : undefined);
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    context?: string,
  ) {
    if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
