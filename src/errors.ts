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
}

/** The workspace has no API key/tenant yet. */
export class NotConnectedError extends VigilError {
  constructor() {
    super(
      'This workspace is not connected to the threat-intel API yet.',
      'A workspace admin can connect it with `/vigil connect`.',
    );
  }
}

/** The user may not do this; `reason` says why (shown to them). */
export class NotAllowedError extends VigilError {
  constructor(reason: string, hint = 'Ask a workspace admin if you need this.') {
    super(reason, hint);
  }
}

/** A stored search context or link is gone (expired or already used). */
export class ExpiredError extends VigilError {}
