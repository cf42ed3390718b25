import { Option } from 'commander';

/** Where state is kept when nothing says otherwise (and always for `--simulate`): a directory. */
export const LOCAL_STATE = '.clm-state';

/**
 * `--state`, with the environment's `CLM_STATE` as its default: set it to the deployed table (`dynamodb://TABLE`) and
 * every command — provision, status, the controls — shares the service's leases, progress and controls. Declared
 * apart from the stores so that a command's declaration loads no store.
 */
export function stateOption(description: string): Option {
  return new Option('--state <dir|dynamodb://TABLE>', description).env('CLM_STATE').default(LOCAL_STATE);
}
