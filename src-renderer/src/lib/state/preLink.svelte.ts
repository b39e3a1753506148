// The Sync view's card for the records made before the first link: how many
// are left in the profile's own organization (never hidden: the card shows
// while any are), and sending the adoptable ones to a remote organization as
// ordinary offline creates (AdoptPreLinkRecords); what stays is listed with why.
import type { PreLinkRecords } from '../../../../src-shared/api/sync';
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';

export type Adoption = Awaited<ReturnType<Client['AdoptPreLinkRecords']>>;

export class PreLinkPanel {
  records = $state<PreLinkRecords | undefined>();
  /** The remote organization chosen (needed when the remote user has several). */
  organizationId = $state('');
  adopting = $state(false);
  result = $state<Adoption | undefined>();
  error = $state<ErrorInfo | undefined>();

  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  async load(): Promise<void> {
    try {
      this.records = await this.#client.GetPreLinkRecords({});
      const orgs = this.records.remoteOrganizations;
      if (!orgs.some((o) => o.organizationId === this.organizationId))
        this.organizationId = orgs.length === 1 ? orgs[0].organizationId : '';
    } catch (e) {
      this.error = toErrorInfo(e);
    }
  }

  /** Sends what can go; returns whether the adoption ran. */
  async adopt(): Promise<boolean> {
    if (this.adopting) return false;
    this.adopting = true;
    this.error = undefined;
    try {
      this.result = await this.#client.AdoptPreLinkRecords(this.organizationId ? { organizationId: this.organizationId } : {});
      this.records = this.result.remaining;
      return true;
    } catch (e) {
      this.error = toErrorInfo(e);
      return false;
    } finally {
      this.adopting = false;
    }
  }
}
