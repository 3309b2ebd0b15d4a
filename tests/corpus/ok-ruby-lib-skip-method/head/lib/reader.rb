class Reader
  def step
    skip 2
    pending
  end
end
