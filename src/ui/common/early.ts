/**
 * Imported first by the popup's and the options page's entry: their first questions
 * (status and settings) leave as the page's script starts, before Preact and the page's
 * own code are evaluated and rendered, so the background answers while the page renders.
 * The page is given this connector; its first load takes the answers already asked for.
 */
import { askFirst, sendToBackground } from '../../messaging/page';

export const earlyConnector = askFirst(sendToBackground, ['getStatus', 'getSettings']);
