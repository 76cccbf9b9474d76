# A POS that makes the kitchen's most common complaint: when it gets no reply it sends the order
# again under a NEW id (a fresh ticket number per attempt), at once and without backing off.
#
# usage: ruby retry_naive.rb HOST PORT ORDER_ID
# Prints one JSON line per attempt, then {"done": ...}.
require 'json'
require 'socket'
require 'time'

host, port, order_id = ARGV[0], Integer(ARGV[1]), ARGV[2]

def order(id)
  {
    command: 'create-order',
    order: {
      id: id, name: 'Zoë 🍜', time: Time.now.utc.iso8601(3), mode: 'ToGo',
      items: [
        { lineId: '1', name: '牛肉麺 Beef noodle soup', qty: 2, mods: [{ name: 'Extra chili 🌶' }] },
        { lineId: '2', name: 'Iced tea', qty: 1, mods: [] }
      ]
    }
  }
end

done = nil
(1..5).each do |attempt|
  id = attempt == 1 ? order_id : "#{order_id}-r#{attempt - 1}"
  begin
    sock = TCPSocket.new(host, port)
    sock.write(JSON.generate(order(id)))
    sock.close_write
    reply = sock.read.to_s
    sock.close
    puts JSON.generate(attempt: attempt, id: id, reply: reply)
    STDOUT.flush
    unless reply.empty?
      done = reply
      break
    end
  rescue SystemCallError, IOError => e
    puts JSON.generate(attempt: attempt, id: id, error: e.class.name)
    STDOUT.flush
  end
end
puts JSON.generate(done: done)
