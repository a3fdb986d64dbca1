/**
 * The error panel of a Work Object, pure: why a person sees no event in the side panel (no connection,
 * another tenant's, not seen here, another workspace, not allowed), never any event data.
 */

/** The error panel: never any event data, only why. */
export function entityError(
  kind: 'not-connected' | 'other-tenant' | 'unknown' | 'other-workspace' | 'not-allowed',
): { status: string; custom_title?: string; custom_message?: string } {
  switch (kind) {
    case 'not-connected':
      return {
        status: 'custom',
        custom_title: 'Vigil is not connected here',
        custom_message: 'This workspace has no threat-intel connection. An admin runs /vigil connect.',
      };
    // Alike on purpose: the panel never tells whether a uid is another tenant's or nobody's.
    case 'other-tenant':
    case 'unknown':
      return {
        status: 'not_found',
        custom_title: 'Event not known to Vigil',
        custom_message:
          'Vigil has not shown this event in this workspace’s tenant. Search for it with /vigil events.',
      };
    case 'other-workspace':
      return {
        status: 'restricted',
        custom_title: 'Not available to you',
        custom_message: 'This event belongs to another workspace’s threat-intel tenant.',
      };
    case 'not-allowed':
      return {
        status: 'restricted',
        custom_title: 'Not available to you',
        custom_message: 'An admin decides who may use Vigil in this workspace (/vigil settings use).',
      };
  }
}
