import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

type Method = (...args: unknown[]) => void;

/**
 * A request's logger, made into a pino child only when a line is written at an enabled level.
 * Fastify makes a child per request (its id bound); with the redaction's wildcard paths pino
 * redacts the bindings of every child it makes (kilobytes of garbage a request), though at the
 * default level a request writes no line.
 */
export class LazyChildLogger {
  private made: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    if ((this.made ?? this.parent).isLevelEnabled(level)) (this.real[level] as Method)(...args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real.child(bindings, options);
  }
}
