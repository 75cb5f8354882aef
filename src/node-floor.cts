// The oldest Node the program runs on: dist/cli.js refuses an older one with one line naming it.
// It is not package.json's `engines`, which npm checks against the Node npm itself runs on: on a
// Node-20 machine a checkout runs on the `node` dev dependency, and `npx switchboard` there warned
// EBADENGINE about a Node the program never runs on.
export const NODE_FLOOR = '22.19.0';
