import org.junit.jupiter.api.Test;

class CalcTest {
  // @Disabled until #12, kept for history
  /* @Ignore */
  @Test
  void adds() {
    String s = "@SuppressWarnings";
    assert 1 + 2 == 3;
  }
}
