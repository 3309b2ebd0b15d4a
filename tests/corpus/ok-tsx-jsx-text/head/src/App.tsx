export const App = () => <p title="it.only(">Use xit( wisely</p>;
