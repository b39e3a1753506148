// Help › Documentation opens the user guide that ships with the app (README.md
// and docs/, copied beside app.asar by electron-builder's extraResources):
// offline, as a field laptop may never see the internet, and no URL to allow.
import { join } from 'node:path';

/** The part of Electron's `app` this reads. */
export interface AppPathsLike {
  readonly isPackaged: boolean;
  getAppPath(): string;
}

/** The README to open: in the installed app's resources, or the repository's own while unpackaged. */
export function documentationPath(app: AppPathsLike, resourcesPath: string): string {
  return app.isPackaged ? join(resourcesPath, 'docs', 'README.md') : join(app.getAppPath(), 'README.md');
}
