// Who is calling: the domain's view of an authenticated request, set by the faces' guards (v2 bearer token, v1 API
// key) and passed to the verbs. It lives here, below the faces, so services never import from the faces.
import type { Account, Credential, SubAccount, Wallet } from './types';

/** Who is calling and on which wallet. */
export interface Caller {
  account: Account;
  credential?: Credential;
  wallet: Wallet;
  subAccount: SubAccount | null;
  /** The v1 API key the request was made with (its id), for the request log. */
  apiKeyId?: string;
}
