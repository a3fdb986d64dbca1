/**
 * Vigil's error taxonomy. Every failure a person can see is a `VigilError` with a message (what went
 * wrong, in our words) and a `hint` (what to do next). The API client's errors (`src/api/errors.ts`) are
 * part of the same taxonomy; anything else is an internal error and is shown only as a reference id.
 */
export class VigilError extends Error {
  readonly hint: string;
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.hint = hint;
  }

  /** What a person is told: the message, unless a subclass keeps technical detail there (API errors do). */
  get told(): string {
    return this.message;
  }
}

/**
 * Vigil declines on purpose (not connected, not allowed, too busy, gone): an answer to the person, not an
 * incident, so it is told without a reference code and logged without a stack.
 */
export class RefusalError extends VigilError {}

/** The workspace has no API key/tenant yet. */
export class NotConnectedError extends RefusalError {
  constructor() {
    super(
      'This workspace is not connected to the threat-intel API yet.',
      'A workspace admin can connect it with `/vigil connect`.',
    );
  }
}

/** The user may not do this; `reason` says why (shown to them). */
export class NotAllowedError extends RefusalError {
  constructor(reason: string, hint = 'Ask a workspace admin if you need this.') {
    super(reason, hint);
  }
}

/**
 * A stored search context or link is gone (expired, already used, or set aside as unreadable): the person is
 * told what to run again; nothing for an administrator to look into.
 */
export class ExpiredError extends RefusalError {}

/** A member already has as many searches waiting or running as one member may. */
export class BusyError extends RefusalError {
  constructor(readonly running: number) {
    super(
      `You have ${running} search${running === 1 ? '' : 'es'} running; wait for ${running === 1 ? 'it' : 'them'} to finish before starting another.`,
      'Each result arrives as soon as its search is done.',
    );
  }
}

/**
 * What someone configured cannot be used as given (a workflow step's input): an answer telling them what to
 * fix, not an incident, so it is logged without a stack like any refusal.
 */
export class InvalidInputError extends RefusalError {}
