import declared from '../../schemas/screens/screens.json' with { type: 'json' };
import { loadScreenSet } from './screen-loader.ts';
import type { ScreenDecl } from './screen-types.ts';

/**
 * The screens of schemas/screens/screens.json, checked for their shape as they are read (the server
 * checks the entities and menu groups they name when it starts: server/session/screen-menu.ts). One
 * module read by the web's route table and the server's menu, so both are made from the same file.
 */
export const DECLARED_SCREENS: readonly ScreenDecl[] = loadScreenSet(declared);
